"""Chinese entities for the ladders' zh-CN variants: a zh_CN Faker seeded from the task's rng,
and short natural zh-CN texts (messages, note titles, recipes) drawn with it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from taskkit.rng import TaskRng

if TYPE_CHECKING:  # pragma: no cover
    from faker import Faker

LOCALE = "zh-CN"  # the device locale a Chinese variant runs under (persist.sys.locale)
FAKER_LOCALE = "zh_CN"  # Faker's provider of Chinese names, cities and companies

# Text messages; `{name}` is a drawn given name.
MESSAGES = ("{name},今晚一起吃饭吗?", "我大概晚到十分钟,抱歉!", "回家路上帮我买点牛奶。", "明天上午的会议改到十点了。",
            "谢谢你昨天的帮忙!", "包裹已经到了,放在门口。", "{name},生日快乐!", "有空给我回个电话。",
            "周末一起去爬山怎么样?", "我已经到机场了,到酒店再联系。")
# Note titles (file names without the extension) and one-line note texts.
NOTE_TITLES = ("购物清单", "读书笔记", "旅行计划", "会议记录", "周末安排", "健身计划", "学习计划", "待办事项", "菜谱收藏",
               "家庭预算")
NOTE_TEXTS = ("记得买牛奶、鸡蛋和面包。", "下周三之前交季度报告。", "周六上午去图书馆还书。", "每天晚上跑步三十分钟。",
              "给妈妈打电话问问身体情况。", "准备下周一的项目演示。", "预订去杭州的火车票。", "整理书架上的旧杂志。")
FOLDERS = ("工作", "生活", "学习", "旅行", "美食", "读书")
# Recipes: dish, description, servings, ingredients, directions.
DISHES = ("番茄炒蛋", "红烧肉", "宫保鸡丁", "麻婆豆腐", "鱼香肉丝", "酸辣土豆丝", "清蒸鲈鱼", "糖醋排骨", "蛋炒饭",
          "西红柿牛腩")
DESCRIPTIONS = ("{name}家的拿手菜。", "简单快手的家常菜。", "适合周末招待朋友。", "孩子们最爱吃的一道菜。")
SERVINGS = ("1人份", "2人份", "3-4人份", "6人份")
INGREDIENTS = ("鸡蛋", "西红柿", "土豆", "猪肉", "豆腐", "青椒", "大蒜", "生姜", "葱", "酱油", "白糖", "米饭")
DIRECTIONS = ("食材洗净切好。", "热锅倒油。", "大火翻炒两分钟。", "加入调料拌匀。", "小火炖二十分钟。", "出锅装盘。")
# Expenses: names and notes.
EXPENSE_NAMES = ("超市购物", "午餐", "打车", "电影票", "水电费", "买书", "咖啡", "理发")
EXPENSE_NOTES = ("用信用卡支付", "现金支付", "和同事AA", "每月固定支出", "可以报销", "打了八折")


def faker(rng: TaskRng) -> "Faker":
    """A zh_CN Faker seeded from `rng` (one draw), so a seed gives the same Chinese entities."""
    from faker import Faker

    fake = Faker(FAKER_LOCALE)
    fake.seed_instance(rng.getrandbits(64))
    return fake
